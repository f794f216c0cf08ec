// mcpkit over stdio with mcpkit/otel in propagation_only mode (bench variant).
import { setUpOtel } from './mcpkit-otel.mjs';

setUpOtel('propagation_only');
await import('./mcpkit-stdio.mjs');
