// mcpkit over stdio with mcpkit/otel in native mode (bench variant).
import { setUpOtel } from './mcpkit-otel.mjs';

setUpOtel('native');
await import('./mcpkit-stdio.mjs');
