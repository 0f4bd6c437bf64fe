import * as params from '@params';

// a comment
const keys = params.fuseOpts.keys;
function show(name) {
    console.log("searching " + name, keys);
}
show(params.title);
