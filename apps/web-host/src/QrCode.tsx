/**
 * A QR code drawn as SVG from a payload (a connector's device-code login), with `uqr`'s encoder: a
 * tiny maintained encoder with no dependencies and no install scripts. {@link qrModules} is the pure
 * part (the module grid as one SVG path); {@link QrCode} the component, an image labelled for screen
 * readers, with the payload offered as text too for a person who cannot scan.
 */
import { encode } from 'uqr';

/** The quiet zone around the code, in modules (the standard asks for four). */
export const QR_BORDER = 4;
/** The longest payload drawn (a QR code holds at most 2953 bytes; a login payload is far shorter). */
export const MAX_QR_PAYLOAD = 2048;

/** The code as SVG data: its side in modules (quiet zone included), one path of its dark modules, and the grid itself. */
export interface QrModules {
  readonly size: number;
  readonly path: string;
  readonly dark: ReadonlyArray<ReadonlyArray<boolean>>;
}

/** Encodes `payload` (error correction M) into its modules; `null` for an empty or too long payload. */
export function qrModules(payload: string): QrModules | null {
  if (payload === '' || payload.length > MAX_QR_PAYLOAD) return null;
  const { data, size } = encode(payload, { ecc: 'M', border: QR_BORDER });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((on, x) => {
      if (on) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, path, dark: data };
}

/** The QR code of `payload`, as an image named `label`; the payload itself below it. */
export function QrCode({ payload, label }: { readonly payload: string; readonly label: string }) {
  const modules = qrModules(payload);
  if (modules === null) return <p class="qr-missing">The code is too long to draw; use the text below.</p>;
  return (
    <figure class="qr">
      <svg class="qr-code" role="img" aria-label={label} viewBox={`0 0 ${modules.size} ${modules.size}`} shape-rendering="crispEdges" data-payload={payload}>
        <rect width={modules.size} height={modules.size} fill="#fff" />
        <path d={modules.path} fill="#000" />
      </svg>
      <figcaption class="qr-payload">
        <code>{payload}</code>
      </figcaption>
    </figure>
  );
}
