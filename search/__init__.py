"""Full-text search over the store (Whoosh): built at build time, read by the web app."""
