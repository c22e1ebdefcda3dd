-- Built-in models with fixed ids (CONTRACT section 5). Local ones run offline and are the
-- defaults in development and tests; Workers AI ones work where the AI binding exists.
INSERT INTO models (id, organization_id, kind, name, provider, model_name, base_url, api_key_encrypted, dimensions, created_at, updated_at) VALUES
  ('00000000-0000-7000-8000-000000000001', NULL, 'llm', 'Local LLM', 'local', 'local-llm', NULL, NULL, NULL, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8000-000000000002', NULL, 'embedding', 'Local Embedding', 'local', 'local-embedding', NULL, NULL, 384, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8000-000000000003', NULL, 'reranker', 'Local Reranker', 'local', 'local-reranker', NULL, NULL, NULL, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8000-000000000011', NULL, 'llm', 'Workers AI Llama 3.1 8B', 'workers_ai', '@cf/meta/llama-3.1-8b-instruct', NULL, NULL, NULL, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8000-000000000012', NULL, 'embedding', 'Workers AI BGE M3', 'workers_ai', '@cf/baai/bge-m3', NULL, NULL, 1024, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8000-000000000013', NULL, 'reranker', 'Workers AI BGE Reranker', 'workers_ai', '@cf/baai/bge-reranker-base', NULL, NULL, NULL, 1767225600000, 1767225600000);
