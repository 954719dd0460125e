// The first line of the input says what to do: ac, re, tle or mle.
const mode = require('fs').readFileSync(0, 'utf8').trim();
if (mode === 'ac') {
    console.log('ok');
} else if (mode === 're') {
    throw new Error('contestant bug');
} else if (mode === 'tle') {
    let x = 0;
    while (x >= 0) x++;
    console.log(x);
} else if (mode === 'mle') {
    const keep = [];
    for (;;) keep.push(new Array(1 << 20).fill(1));
}
