import{a as e,b as o}from"./chunk-4J7XMMR5.mjs";import"./chunk-MWUZ53VY.mjs";import"./chunk-V3YWWTDH.mjs";export{e as EventModelingModule,o as createEventModelingServices};
