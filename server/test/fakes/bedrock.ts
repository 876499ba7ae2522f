import type http from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';
import { ranked } from './rerank';

export interface BedrockIdentity {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface FakeBedrockOptions {
  reply?: string;
  usage?: { input: number; output: number };
  /** Answer every call with this status and `{"message"}` instead. */
  error?: { status: number; message: string };
  /** Streams only: an exception frame of this type after the first piece of text. */
  streamException?: { type: string; message: string };
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const text = (value: string) => ({ type: 'string' as const, value });

/** One event-stream message carrying one model event, as Bedrock frames InvokeModelWithResponseStream. */
export function chunkFrame(event: unknown): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return codec.encode({
    headers: {
      ':message-type': text('event'),
      ':event-type': text('chunk'),
      ':content-type': text('application/json'),
    },
    body: fromUtf8(JSON.stringify({ bytes })),
  });
}

export function exceptionFrame(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': text('exception'),
      ':exception-type': text(type),
      ':content-type': text('application/json'),
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** `AWS4-HMAC-SHA256 Credential=…/date/region/service/aws4_request, SignedHeaders=…, Signature=…` */
function authorizationParts(header: string | undefined) {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      header ?? '',
    );
  if (!match) return undefined;
  const [, accessKeyId, , region, service, signedHeaders, signature] = match;
  return { accessKeyId, region, service, signedHeaders: (signedHeaders ?? '').split(';'), signature };
}

/** x-amz-date (20240102T030405Z) as a Date. */
const amzDate = (value: string) =>
  new Date(value.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

/**
 * A fake Bedrock Runtime: it recomputes each request's SigV4 signature with the identity's secret
 * (service bedrock, the identity's region) and refuses a mismatch as AWS does (403), then serves
 * InvokeModel (Claude's Messages body, Llama 3's prompt) and InvokeModelWithResponseStream in AWS's
 * binary event stream.
 */
export class FakeBedrock {
  options: FakeBedrockOptions = {};
  /** Requests whose signature checked out. */
  readonly verified: RecordedRequest[] = [];

  constructor(private readonly identity: BedrockIdentity) {}

  configure(options: FakeBedrockOptions): void {
    this.options = options;
  }

  async #signatureMatches(request: RecordedRequest): Promise<boolean> {
    const parts = authorizationParts(request.headers.authorization as string | undefined);
    const date = request.headers['x-amz-date'];
    if (!parts || typeof date !== 'string') return false;
    if (parts.accessKeyId !== this.identity.accessKeyId || parts.region !== this.identity.region)
      return false;
    if (parts.service !== 'bedrock') return false;
    const headers: Record<string, string> = {};
    for (const name of parts.signedHeaders) headers[name] = String(request.headers[name] ?? '');
    const signer = new SignatureV4({
      service: 'bedrock',
      region: this.identity.region,
      credentials: { accessKeyId: this.identity.accessKeyId, secretAccessKey: this.identity.secretAccessKey },
      sha256: Hash.bind(null, 'sha256'),
    });
    const [host, port] = String(request.headers.host).split(':');
    const signed = await signer.sign(
      {
        method: request.method,
        protocol: 'http:',
        hostname: host ?? '',
        port: port ? Number(port) : undefined,
        path: request.url.split('?')[0] ?? '',
        query: {},
        headers,
        body: request.body,
      },
      { signingDate: amzDate(date) },
    );
    return (signed.headers.authorization ?? '').endsWith(`Signature=${parts.signature}`);
  }

  readonly handler: FakeHandler = async (request, response) => {
    if (!(await this.#signatureMatches(request))) {
      sendJson(response, 403, {
        message:
          'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      });
      return;
    }
    this.verified.push(request);
    if (request.url === '/rerank') {
      this.#rerank(request, response);
      return;
    }
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.url);
    if (!match) {
      sendJson(response, 404, { message: 'Unknown operation' });
      return;
    }
    const modelId = decodeURIComponent(match[1] ?? '');
    const stream = match[2] === 'invoke-with-response-stream';
    const { error } = this.options;
    if (error) {
      sendJson(response, error.status, { message: error.message });
      return;
    }
    const body = request.json ?? {};
    if (modelId.startsWith('anthropic.')) {
      if (body.anthropic_version !== 'bedrock-2023-05-31' || 'model' in body || 'stream' in body) {
        sendJson(response, 400, {
          message: 'Malformed input request: extraneous key or bad anthropic_version',
        });
        return;
      }
      if (stream) this.#claudeStream(response, modelId);
      else sendJson(response, 200, this.#claudeMessage(modelId));
      return;
    }
    if (modelId.startsWith('meta.llama3')) {
      if (typeof body.prompt !== 'string') {
        sendJson(response, 400, { message: 'Malformed input request: prompt is required' });
        return;
      }
      if (stream) this.#llamaStream(response);
      else sendJson(response, 200, this.#llamaAnswer());
      return;
    }
    sendJson(response, 400, { message: `The provided model identifier is invalid: ${modelId}` });
  };

  /** Bedrock Agent Runtime's Rerank: one text query, inline text documents, a reranker by its model ARN. */
  #rerank(request: RecordedRequest, response: http.ServerResponse) {
    const invalid = (message: string) => sendJson(response, 400, { message });
    const { error } = this.options;
    if (error) return sendJson(response, error.status, { message: error.message });
    const body = request.json ?? {};
    const queries = body.queries as Array<{ type?: unknown; textQuery?: { text?: unknown } }> | undefined;
    const query = queries?.[0];
    if (queries?.length !== 1 || query?.type !== 'TEXT' || typeof query.textQuery?.text !== 'string')
      return invalid('queries must hold one TEXT query');
    const sources = body.sources as
      | Array<{
          type?: unknown;
          inlineDocumentSource?: { type?: unknown; textDocument?: { text?: unknown } };
        }>
      | undefined;
    const texts = (sources ?? []).map((source) =>
      source.type === 'INLINE' && source.inlineDocumentSource?.type === 'TEXT'
        ? source.inlineDocumentSource.textDocument?.text
        : undefined,
    );
    if (texts.length === 0 || !texts.every((text) => typeof text === 'string'))
      return invalid('sources must be INLINE TEXT documents');
    const config = body.rerankingConfiguration as
      | {
          type?: unknown;
          bedrockRerankingConfiguration?: {
            numberOfResults?: unknown;
            modelConfiguration?: { modelArn?: unknown };
          };
        }
      | undefined;
    const bedrock = config?.bedrockRerankingConfiguration;
    const arn = /^arn:aws:bedrock:([a-z0-9-]+)::foundation-model\/(.+)$/.exec(
      String(bedrock?.modelConfiguration?.modelArn),
    );
    if (config?.type !== 'BEDROCK_RERANKING_MODEL' || !arn || arn[1] !== this.identity.region)
      return invalid('rerankingConfiguration must name a Bedrock reranker of the region by its ARN');
    if (!['cohere.rerank-v3-5:0', 'amazon.rerank-v1:0'].includes(arn[2] ?? ''))
      return invalid(`The provided model identifier is invalid: ${arn[2]}`);
    const top = bedrock?.numberOfResults;
    if (top !== undefined && (typeof top !== 'number' || top < 1 || top > 1000))
      return invalid('numberOfResults must be between 1 and 1000');
    const results = ranked(query.textQuery.text, texts as string[], top as number | undefined);
    sendJson(response, 200, {
      results: results.map(({ index, relevance_score }) => ({ index, relevanceScore: relevance_score })),
    });
  }

  #reply = () => this.options.reply ?? 'Hello from Bedrock';
  #usage = () => this.options.usage ?? { input: 11, output: 4 };

  #claudeMessage(modelId: string) {
    const usage = this.#usage();
    return {
      id: 'msg_bdrk_01Fake',
      type: 'message',
      role: 'assistant',
      model: modelId,
      content: [{ type: 'text', text: this.#reply() }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }

  #sendFrames(response: http.ServerResponse, frames: Uint8Array[]): void {
    response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    for (const frame of frames) response.write(frame);
    response.end();
  }

  #claudeStream(response: http.ServerResponse, modelId: string): void {
    const usage = this.#usage();
    const pieces = this.#reply().split(/(?= )/);
    const events: Uint8Array[] = [
      chunkFrame({
        type: 'message_start',
        message: {
          ...this.#claudeMessage(modelId),
          content: [],
          stop_reason: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      }),
      chunkFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ];
    for (const [index, piece] of pieces.entries()) {
      events.push(
        chunkFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }),
      );
      const exception = this.options.streamException;
      if (index === 0 && exception) {
        events.push(exceptionFrame(exception.type, exception.message));
        this.#sendFrames(response, events);
        return;
      }
    }
    events.push(
      chunkFrame({ type: 'content_block_stop', index: 0 }),
      chunkFrame({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      }),
      chunkFrame({
        type: 'message_stop',
        'amazon-bedrock-invocationMetrics': { inputTokenCount: usage.input, outputTokenCount: usage.output },
      }),
    );
    this.#sendFrames(response, events);
  }

  #llamaAnswer() {
    const usage = this.#usage();
    return {
      generation: this.#reply(),
      prompt_token_count: usage.input,
      generation_token_count: usage.output,
      stop_reason: 'stop',
    };
  }

  #llamaStream(response: http.ServerResponse): void {
    const usage = this.#usage();
    const pieces = this.#reply().split(/(?= )/);
    const frames = pieces.map((piece, index) =>
      chunkFrame({
        generation: piece,
        prompt_token_count: index === 0 ? usage.input : null,
        generation_token_count: index === pieces.length - 1 ? usage.output : index + 1,
        stop_reason: index === pieces.length - 1 ? 'stop' : null,
      }),
    );
    this.#sendFrames(response, frames);
  }
}
