import{a as e,b as o}from"./chunk-SVHOGJPR.mjs";import"./chunk-A3LLD7C6.mjs";import"./chunk-CG7VIXT6.mjs";import"./chunk-AEP47HME.mjs";import"./chunk-IJTDMCXQ.mjs";import"./chunk-UGEUIIAL.mjs";import"./chunk-5LJW3EUZ.mjs";import"./chunk-C7QCCU7L.mjs";import"./chunk-767MNKTJ.mjs";import"./chunk-3NO356PZ.mjs";import"./chunk-Z2IEFKAF.mjs";import"./chunk-3DCBE5TA.mjs";import"./chunk-JENJ2NYI.mjs";import"./chunk-FRYFDGAD.mjs";import"./chunk-KNGDTZMA.mjs";import"./chunk-UCIVM6JH.mjs";import"./chunk-PNVTB6QF.mjs";import"./chunk-EB7S5WDG.mjs";import"./chunk-VHEAKMU3.mjs";import"./chunk-VLFMOWSA.mjs";import"./chunk-NXZFCOWJ.mjs";import{a as r}from"./chunk-V3YWWTDH.mjs";var s=r(t=>`${e(t)}
  .swimlane.cluster:not([data-color-id]) rect {
    stroke: ${t.clusterBorder} !important;
  }
  [data-look="neo"].cluster rect {
    filter: none;
  }
`,"getStyles"),l=s;var p=o({styles:l});export{p as diagram};
