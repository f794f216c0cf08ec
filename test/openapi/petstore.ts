/**
 * Petstore documents written for these tests, one per OpenAPI version, with every parameter
 * location and style, JSON/form/multipart/binary bodies, errors, binary responses, a circular
 * schema and security schemes; and a backend that records each request exactly as it arrived.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

function components(version: '3.0' | '3.1'): Json {
  const nullableString = version === '3.0' ? { type: 'string', nullable: true } : { type: ['string', 'null'] };
  return {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', format: 'int64', readOnly: true },
          name: { type: 'string', example: 'Rex' },
          tag: nullableString,
          // Circular: a pet's parent is a pet.
          parent: { $ref: '#/components/schemas/Pet' },
          owner: version === '3.0' ? { allOf: [{ $ref: '#/components/schemas/Owner' }], nullable: true } : { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
        },
        xml: { name: 'pet' },
      },
      Owner: { type: 'object', properties: { name: { type: 'string' } }, 'x-internal': true },
      NewPet: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string', minLength: 1 },
          tag: nullableString,
          age: version === '3.0' ? { type: 'integer', minimum: 0, exclusiveMinimum: true } : { type: 'integer', exclusiveMinimum: 0 },
        },
      },
      Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    },
    parameters: {
      PetId: { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } },
    },
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
    },
  };
}

const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });
const error = { description: 'error', ...json({ $ref: '#/components/schemas/Error' }) };

export function petstore(version: '3.0' | '3.1'): Json {
  return {
    openapi: version === '3.0' ? '3.0.3' : '3.1.0',
    info: { title: 'Petstore', version: '1.0.0' },
    // Points elsewhere on purpose: requests must go to the configured baseUrl only.
    servers: [{ url: 'http://169.254.169.254/latest' }],
    security: [{ apiKey: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets',
          tags: ['pets'],
          parameters: [
            { name: 'limit', in: 'query', schema: version === '3.0' ? { type: 'integer', maximum: 100, exclusiveMaximum: true } : { type: 'integer', exclusiveMaximum: 100 } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'sort', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'ids', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'words', in: 'query', style: 'spaceDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
            { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'pets', ...json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }) }, default: error },
        },
        post: {
          operationId: 'createPet',
          summary: 'Create a pet',
          tags: ['pets'],
          security: [{ bearer: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } }, 'application/xml': { schema: {} } } },
          responses: { '201': { description: 'created', ...json({ $ref: '#/components/schemas/Pet' }) }, '422': error },
        },
      },
      '/pets/{petId}': {
        parameters: [{ $ref: '#/components/parameters/PetId' }],
        get: {
          operationId: 'getPet',
          tags: ['pets'],
          parameters: [{ name: 'petId', in: 'query', description: 'the same name in the query', schema: { type: 'string' } }],
          responses: { '200': { description: 'a pet', ...json({ $ref: '#/components/schemas/Pet' }) }, '404': error },
        },
        delete: { operationId: 'deletePet', tags: ['admin'], security: [{ basic: [] }], responses: { '204': { description: 'gone' } } },
      },
      '/pets/{petId}/photo': {
        parameters: [{ $ref: '#/components/parameters/PetId' }],
        get: { operationId: 'getPhoto', tags: ['media'], responses: { '200': { description: 'png', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } } } },
        put: {
          operationId: 'putPhoto',
          tags: ['media'],
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: { '204': { description: 'stored' } },
        },
      },
      '/pets/{petId}/vaccinations': {
        post: {
          operationId: 'addVaccination',
          parameters: [{ $ref: '#/components/parameters/PetId' }],
          requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { vaccine: { type: 'string' }, doses: { type: 'array', items: { type: 'integer' } } }, required: ['vaccine'] } } } },
          responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
      '/documents': {
        post: {
          operationId: 'uploadDocument',
          requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { title: { type: 'string' }, file: { type: 'string', format: 'binary' }, meta: { type: 'object' } } } } } },
          responses: { '200': { description: 'ok', ...json({ type: 'object', properties: { received: { type: 'string' } } }) } },
        },
      },
      '/labels/{labels}/{point}': {
        get: {
          // No operationId: the name is derived from method and path.
          parameters: [
            { name: 'labels', in: 'path', required: true, style: 'label', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'point', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } } } },
          ],
          responses: { '200': { description: 'echo', content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
      '/files/{name}': {
        get: {
          operationId: 'files/get by name',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          // Operation-level servers are never followed either.
          servers: [{ url: 'http://evil.example' }],
          responses: { '200': { description: 'raw', content: { 'application/octet-stream': {} } } },
        },
      },
      '/redirect': { get: { operationId: 'redirect', parameters: [{ name: 'to', in: 'query', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', ...json({ type: 'object' }) } } } },
      '/big': { get: { operationId: 'big', responses: { '200': { description: 'large', content: { 'text/plain': {} } } } } },
      '/slow': { get: { operationId: 'slow', responses: { '200': { description: 'eventually', content: { 'text/plain': {} } } } } },
      '/count': { get: { operationId: 'count', responses: { '200': { description: 'a number', ...json({ type: 'integer' }) } } } },
    },
    components: components(version),
  };
}

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Backend {
  url: string;
  requests: Recorded[];
  /** Resolves when the backend saw a /slow request's connection close before it answered. */
  slowAborted: Promise<void>;
  close(): Promise<void>;
}

export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** The API the documents describe, on 127.0.0.1 under /api. */
export async function startBackend(): Promise<Backend> {
  const requests: Recorded[] = [];
  let markAborted: () => void = () => {};
  const slowAborted = new Promise<void>((resolve) => (markAborted = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://backend');
      const path = url.pathname.replace(/^\/api/, '');
      const send = (status: number, type: string, payload: string | Buffer): void => void res.writeHead(status, { 'content-type': type }).end(payload);
      if (path === '/pets' && req.method === 'GET') return send(200, 'application/json', JSON.stringify([{ id: 1, name: 'Rex', tag: null }]));
      if (path === '/pets' && req.method === 'POST') {
        const pet = JSON.parse(body.toString()) as Json;
        if (pet['name'] === 'invalid') return send(422, 'application/json', JSON.stringify({ code: 422, message: 'name refused' }));
        return send(201, 'application/json', JSON.stringify({ id: 7, ...pet, parent: { id: 1, name: 'Rex' } }));
      }
      let m = /^\/pets\/(\d+)$/.exec(path);
      if (m !== null && req.method === 'GET') return m[1] === '404' ? send(404, 'application/json', JSON.stringify({ code: 404, message: 'no such pet' })) : send(200, 'application/json', JSON.stringify({ id: Number(m[1]), name: 'Rex', tag: 'dog' }));
      if (m !== null && req.method === 'DELETE') return void res.writeHead(204).end();
      m = /^\/pets\/(\d+)\/photo$/.exec(path);
      if (m !== null) return req.method === 'GET' ? send(200, 'image/png', PNG) : void res.writeHead(204).end();
      if (/^\/pets\/\d+\/vaccinations$/.test(path)) return send(200, 'text/plain', `got ${body.toString()}`);
      if (path === '/documents') return send(200, 'application/json', JSON.stringify({ received: req.headers['content-type']?.split(';')[0] ?? '' }));
      if (path.startsWith('/labels/')) return send(200, 'text/plain', req.url ?? '');
      if (path.startsWith('/files/')) return send(200, 'application/octet-stream', Buffer.from([0, 1, 2, 255]));
      if (path === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      if (path === '/big') return send(200, 'text/plain', 'x'.repeat(64 * 1024));
      if (path === '/count') return send(200, 'application/json', '42');
      if (path === '/slow') {
        res.on('close', () => {
          if (!res.writableEnded) markAborted();
        });
        return; // never answers
      }
      send(404, 'text/plain', 'no route');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return {
    url,
    requests,
    slowAborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
