import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { codecs } from '@wework/codex-protocol';
import { OPENAI_FORM_EXTENSION } from '../src/InitializeCapabilities.js';
import { advertisesOpenaiForm, weworkInitializeCapabilities } from '../src/index.js';

describe('weworkInitializeCapabilities', () => {
  it('asks for the experimental API and does not advertise openai/form by default', () => {
    const capabilities = weworkInitializeCapabilities();
    expect(capabilities).toEqual({ experimentalApi: true, requestAttestation: false });
    expect(advertisesOpenaiForm(capabilities)).toBe(false);
    expect(E.isRight(codecs.InitializeCapabilities.decode(capabilities))).toBe(true);
  });

  it('advertises openai/form only when asked, as an extension', () => {
    const capabilities = weworkInitializeCapabilities({ openaiForm: true });
    expect(capabilities).toEqual({ experimentalApi: true, requestAttestation: false, extensions: { [OPENAI_FORM_EXTENSION]: {} } });
    expect(advertisesOpenaiForm(capabilities)).toBe(true);
    expect(E.isRight(codecs.InitializeCapabilities.decode(capabilities))).toBe(true);
  });

  it('removes openai/form from given capabilities unless asked, keeping everything else', () => {
    const base = {
      experimentalApi: false,
      requestAttestation: true,
      mcpServerOpenaiFormElicitation: true,
      optOutNotificationMethods: ['thread/started'],
      extensions: { 'openai/form': {}, 'example/other': { on: true } },
    };
    expect(weworkInitializeCapabilities({ base })).toEqual({
      experimentalApi: true,
      requestAttestation: true,
      optOutNotificationMethods: ['thread/started'],
      extensions: { 'example/other': { on: true } },
    });
    expect(weworkInitializeCapabilities({ base: { experimentalApi: true, requestAttestation: false, extensions: { 'openai/form': {} } } })).toEqual({
      experimentalApi: true,
      requestAttestation: false,
    });
  });
});

describe('advertisesOpenaiForm', () => {
  it('sees the legacy flag and the extension entry', () => {
    expect(advertisesOpenaiForm(null)).toBe(false);
    expect(advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false, mcpServerOpenaiFormElicitation: true })).toBe(true);
    expect(advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false, mcpServerOpenaiFormElicitation: false })).toBe(false);
    expect(advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false, extensions: { 'openai/form': {} } })).toBe(true);
    expect(advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false, extensions: { other: {} } })).toBe(false);
  });
});
