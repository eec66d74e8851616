import { parse } from '@wework/mention-serializer';
import { mentionText } from './dist/mentionParsing.js';
import { performance } from 'node:perf_hooks';
const s = mentionText(1_000_000);
const scan = (m) => { let c=0; for (let i=m.indexOf('['); i!==-1; i=m.indexOf('[',i+1)) c++; return c; };
const med = (a) => a.sort((x,y)=>x-y)[a.length>>1];
for (let i=0;i<20;i++){parse(s);scan(s);}
const P=[],S=[];
for (let i=0;i<101;i++){let t=performance.now();parse(s);P.push(performance.now()-t);t=performance.now();scan(s);S.push(performance.now()-t);}
console.log('parse', med(P).toFixed(3), 'scan', med(S).toFixed(3), 'ratio', (med(P)/med(S)).toFixed(2));
