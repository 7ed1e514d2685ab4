// 5000-line TS sample from typescript's own lib (a slice) to be realistic
const fs = require('fs');
const src = fs.readFileSync('/work/main/node_modules/typescript/lib/typescript.js', 'utf8').split('\n');
module.exports = src.slice(20000, 25000).join('\n');
