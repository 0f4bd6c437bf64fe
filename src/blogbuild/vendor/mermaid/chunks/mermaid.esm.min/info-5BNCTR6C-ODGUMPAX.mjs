import{a as o,b as e}from"./chunk-G35KUZXD.mjs";import"./chunk-MWUZ53VY.mjs";import"./chunk-V3YWWTDH.mjs";export{o as InfoModule,e as createInfoServices};
