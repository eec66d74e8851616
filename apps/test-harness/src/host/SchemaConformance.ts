/**
 * Whether what the harness recorded between itself and the executor keeps to the host protocol's JSON
 * Schema (`hostProtocolSchema` of `@wework/host-protocol`, the document `--print-schema` prints): every
 * message both ways validates against its definition, and a request the executor refused as invalid is
 * refused by the schema too. The validator is built once per process.
 *
 * Every host the harness closed is remembered with its verdict, so that a test suite can check them all
 * (`takeClosedHostConformance`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { conformanceOf, hostProtocolSchema, type Conformance, type RecordedMessage, type SchemaValidator } from '@wework/host-protocol';

let validator: SchemaValidator | undefined;

/** A validator holding the host protocol's schema. */
export function hostProtocolValidator(): SchemaValidator {
  if (validator !== undefined) return validator;
  const schema = hostProtocolSchema();
  if (E.isLeft(schema)) throw new Error(`the host protocol has no schema: ${schema.left.map((error) => error._tag).join(', ')}`);
  const ajv = new Ajv2020({ allowUnionTypes: true, strictTuples: false });
  ajv.addSchema(schema.right);
  validator = (ref, value) => ajv.validate(ref, value) === true;
  return validator;
}

/** The conformance of a recorded conversation. */
export const recordingConformance = (recording: ReadonlyArray<RecordedMessage>): Conformance => conformanceOf(recording, hostProtocolValidator());

const closed: Conformance[] = [];

/** Remembers the verdict on a host's conversation when it closes. */
export const rememberClosedHost = (conformance: Conformance): void => void closed.push(conformance);

/** The verdicts on the hosts closed since the last call (and forgets them). */
export const takeClosedHostConformance = (): ReadonlyArray<Conformance> => closed.splice(0);
