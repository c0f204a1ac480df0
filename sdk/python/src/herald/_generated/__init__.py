"""Operation classes generated from Herald's OpenAPI document at build time (api/, one module per tag)."""
