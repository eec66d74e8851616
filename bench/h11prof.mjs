import { parse } from '@wework/mention-serializer';
import { mentionText } from './dist/mentionParsing.js';
const s = mentionText(1_000_000);
for (let i=0;i<600;i++) parse(s);
