import { toTurnInput } from '@wework/mention-serializer';
import { mentionText } from './dist/mentionParsing.js';
const t = mentionText(2_000_000);
for (let i = 0; i < 40; i++) toTurnInput(t);
