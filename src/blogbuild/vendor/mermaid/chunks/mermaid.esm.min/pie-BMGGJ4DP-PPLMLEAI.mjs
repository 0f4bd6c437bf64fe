import{a as e,b as r}from"./chunk-PHMQW7SG.mjs";import"./chunk-MWUZ53VY.mjs";import"./chunk-V3YWWTDH.mjs";export{e as PieModule,r as createPieServices};
