import{a as e,b as r}from"./chunk-FCGY7WDG.mjs";import"./chunk-MWUZ53VY.mjs";import"./chunk-V3YWWTDH.mjs";export{e as PacketModule,r as createPacketServices};
