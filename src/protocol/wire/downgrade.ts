import { revision, type ProtocolVersion } from './versions.js';
import type { MethodFacts } from './method-facts.js';

/**
 * Older revisions know fewer content types: audio arrived in 2025-03-26 and
 * resource links in 2025-06-18. A block the client's revision cannot parse is
 * replaced by a text block saying what it was, so the message stays valid for
 * that client and the model still learns something.
 */
function downgradeBlock(block: unknown, audio: boolean, links: boolean): unknown {
  if (typeof block !== 'object' || block === null) return block;
  const b = block as Record<string, unknown>;
  if (b['type'] === 'audio' && !audio) {
    return { type: 'text', text: `[audio content (${String(b['mimeType'])}) not shown: this client's protocol revision has no audio]` };
  }
  if (b['type'] === 'resource_link' && !links) {
    const name = typeof b['name'] === 'string' ? `${b['name']}: ` : '';
    return { type: 'text', text: `[resource ${name}${String(b['uri'])}]` };
  }
  return block;
}

function downgradeList(list: unknown, audio: boolean, links: boolean): unknown {
  if (!Array.isArray(list)) return list;
  let changed = false;
  const out = list.map((item: unknown) => {
    const next = downgradeBlock(item, audio, links);
    if (next !== item) changed = true;
    return next;
  });
  return changed ? out : list;
}

/** A finalize step for revisions older than 2025-06-18; newer ones need none. */
export function contentDowngrade(version: ProtocolVersion): ((method: MethodFacts, result: unknown) => unknown) | undefined {
  const { audio, resourceLinks } = revision(version).features;
  if (audio && resourceLinks) return undefined;
  return (method, result) => {
    if (typeof result !== 'object' || result === null) return result;
    const r = result as Record<string, unknown>;
    if (method.downgrade === 'content') {
      const content = downgradeList(r['content'], audio, resourceLinks);
      return content === r['content'] ? result : { ...r, content };
    }
    if (method.downgrade === 'messages' && Array.isArray(r['messages'])) {
      let changed = false;
      const messages = (r['messages'] as Record<string, unknown>[]).map((m) => {
        const content = downgradeBlock(m['content'], audio, resourceLinks);
        if (content === m['content']) return m;
        changed = true;
        return { ...m, content };
      });
      return changed ? { ...r, messages } : result;
    }
    return result;
  };
}
