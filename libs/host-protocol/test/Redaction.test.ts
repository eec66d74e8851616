import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HostRequests, redactHostMessage } from '../src/index.js';
import { REDACTED, redactHostParams } from '../src/Redaction.js';

const CANARY = 'SECRET-CANARY-7f3a';

describe('redactHostParams', () => {
  it('leaves out the Wegent runtime token and the supervision model’s bearer token and headers', () => {
    expect(redactHostParams('runtime/setWegentToken', { token: CANARY, expiresIn: 3600 })).toEqual({ token: REDACTED, expiresIn: 3600 });
    const config = { model: 'm', providerId: 'p', baseUrl: 'http://127.0.0.1:1/v1', bearerToken: CANARY, headers: { 'x-gateway-key': CANARY, other: CANARY } };
    expect(redactHostParams('supervision/setModel', { config })).toEqual({ config: { ...config, bearerToken: REDACTED, headers: { 'x-gateway-key': REDACTED, other: REDACTED } } });
    expect(config.bearerToken).toBe(CANARY); // the input is not changed
  });

  it('keeps the params of methods without credentials, and of unknown methods, as they are', () => {
    const params = { taskId: 't', text: CANARY };
    expect(redactHostParams('message/send', params)).toBe(params);
    expect(redactHostParams('no/such', params)).toBe(params);
    expect(redactHostParams('__proto__', params)).toBe(params);
  });

  it('never lets a declared credential through, whatever the params around it', () => {
    const secretMethods = Object.values(HostRequests).filter((descriptor) => descriptor.secrets.length > 0);
    expect(secretMethods.map((descriptor) => descriptor.method).sort()).toEqual(['runtime/setWegentToken', 'supervision/setModel']);
    fc.assert(
      fc.property(fc.constantFrom(...secretMethods), fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), (descriptor, around, inner) => {
        // Build params that hold the canary at every declared path, among arbitrary other fields.
        const params: Record<string, unknown> = { ...around };
        for (const path of descriptor.secrets) {
          let at: Record<string, unknown> = params;
          path.forEach((key, index) => {
            const name = key === '*' ? 'anyKey' : key;
            if (index === path.length - 1) at[name] = CANARY;
            else {
              const next = typeof at[name] === 'object' && at[name] !== null && !Array.isArray(at[name]) ? (at[name] as Record<string, unknown>) : { ...inner };
              at[name] = next;
              at = next;
            }
          });
        }
        expect(JSON.stringify(redactHostParams(descriptor.method, params))).not.toContain(CANARY);
      }),
    );
  });
});

describe('redactHostMessage', () => {
  it('redacts a request and leaves responses and notifications alone', () => {
    const request = { jsonrpc: '2.0', id: 3, method: 'runtime/setWegentToken', params: { token: CANARY, expiresIn: 60 } };
    expect(redactHostMessage(request)).toEqual({ ...request, params: { token: REDACTED, expiresIn: 60 } });
    const response = { jsonrpc: '2.0', id: 3, result: { receivedAt: 1 } };
    expect(redactHostMessage(response)).toBe(response);
    const other = { jsonrpc: '2.0', method: 'turn/started', params: { taskId: 't' } };
    expect(redactHostMessage(other)).toBe(other);
  });
});
