// A consumer of two libraries, compiled by the examples' tests with each tsconfig.<moduleResolution>.json
// here: `node16`, `nodenext` and `bundler` compile it; `node10` cannot find the packages (TS2307).
import { isRight } from 'fp-ts/lib/Either.js';
import { handleElicitationRequest } from '@wework/elicitation-mapper';
import { parse, serialize } from '@wework/mention-serializer';

const decision = handleElicitationRequest({ mode: 'form', message: 'Pick one', requestedSchema: { type: 'object', properties: { pick: { type: 'string', enum: ['a', 'b'] } } } });
const markdown = serialize(parse('Use [$pdf](/skills/pdf/SKILL.md)'));
export const shown: boolean = decision._tag === 'ShowCard' && isRight({ _tag: 'Right', right: markdown });
