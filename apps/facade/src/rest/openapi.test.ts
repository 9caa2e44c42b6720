import { describe, expect, it } from 'vitest';
import { buildVersion } from '@ledger-node/telemetry';
import { openApiDocument } from './openapi';
import { restRouteDefinitions } from './routes';

describe('the OpenAPI document', () => {
  it("gives the node's build as info.version: the version and the commit", () => {
    const document = openApiDocument(restRouteDefinitions);
    expect(document.info.version).toBe(buildVersion());
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?(\+[0-9a-f]{12})?$/);
  });
});
