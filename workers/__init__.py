"""GPU-side services the gateway calls over HTTP."""
