import { type DeliveryHeaderInput, deliveryHeaders } from './delivery-headers.js';

/** One signed delivery to send. */
export interface SignedDeliveryInput extends DeliveryHeaderInput {
  readonly url: string;
  /** How long the receiver may take. */
  readonly timeoutMs: number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Extra headers (an endpoint's custom auth); cannot replace `Service-*` or Content-Type. @default none */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** Read the start of the answer into `answer`. @default false */
  readonly readAnswer?: boolean;
}

/** What one attempt gave. */
export interface DeliveryOutcome {
  /** Null when no response came. */
  readonly status: number | null;
  /** `http_503`, `redirect_302`, `timeout`, `connection_error: ...`; null on a 2xx. */
  readonly error: string | null;
  /** One line, up to 300 characters, secrets redacted; null unless read. */
  readonly answer: string | null;
}

/** Sends one delivery as the service does, redirects not followed: the one sender for the sandbox and CLI. */
export async function sendSignedDelivery(input: SignedDeliveryInput): Promise<DeliveryOutcome> {
  const signed = await deliveryHeaders(input);
  const signal = AbortSignal.timeout(input.timeoutMs);
  try {
    const response = await (input.fetch ?? fetch)(input.url, {
      method: 'POST',
      headers: { ...input.extraHeaders, ...signed },
      body: input.body,
      redirect: 'manual',
      signal,
    });
    const answer = input.readAnswer ? await answerOf(response) : await discard(response);
    if (response.status >= 200 && response.status < 300)
      return { status: response.status, error: null, answer };
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      return { status: response.status || null, error: `redirect_${response.status || 'opaque'}`, answer };
    }
    return { status: response.status, error: `http_${response.status}`, answer };
  } catch (error) {
    if (signal.aborted) return { status: null, error: 'timeout', answer: null };
    return { status: null, error: `connection_error: ${describe(error)}`, answer: null };
  }
}

async function discard(response: Response): Promise<null> {
  await response.body?.cancel().catch(() => undefined);
  return null;
}

/** The start of an answer, one line, secrets left out; null when empty. */
async function answerOf(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  let text = '';
  const decoder = new TextDecoder();
  try {
    while (text.length < 300) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // What arrived is enough.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const line = text
    .replace(/whsec_[A-Za-z0-9_+/=-]+/g, 'whsec_[redacted]')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  return line === '' ? null : line;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
