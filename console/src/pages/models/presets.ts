// Where people most often get their models, as the form's starting points: each provider's own
// documented OpenAI-compatible base URL and a few of its model names (the first is filled in; the
// others are offered as suggestions). Anthropic and Groq have no embeddings endpoint; rerankers
// speak the Cohere/Jina `/rerank` shape, which of these only vLLM serves.
import type { ModelKind, ModelWrite } from "./api";

export interface PresetModel {
  name: string;
  dimensions?: number;
}

export interface Preset {
  id: string;
  /** The provider's own name: the same in every language. */
  label: string;
  provider: ModelWrite["provider"];
  /** Empty when only the user knows it (Azure's resource URL); `placeholder` shows its form. */
  baseUrl: string;
  placeholder?: string;
  /** A local server that takes no key. */
  keyless?: boolean;
  /** A note of its own (a strings key of the page). */
  note?: "presetAzureNote" | "presetLocalNote" | "presetWorkersAiNote";
  models: Partial<Record<ModelKind, PresetModel[]>>;
}

export const PRESETS: Preset[] = [
  {
    id: "openai",
    label: "OpenAI",
    provider: "openai_compatible",
    baseUrl: "https://api.openai.com/v1",
    models: {
      llm: [{ name: "gpt-4o-mini" }, { name: "gpt-4o" }, { name: "gpt-4.1-mini" }, { name: "gpt-4.1" }],
      embedding: [
        { name: "text-embedding-3-small", dimensions: 1536 },
        { name: "text-embedding-3-large", dimensions: 3072 },
      ],
    },
  },
  {
    id: "azure",
    label: "Azure OpenAI",
    provider: "openai_compatible",
    baseUrl: "",
    placeholder: "https://YOUR-RESOURCE.openai.azure.com/openai/v1/",
    note: "presetAzureNote",
    models: { llm: [], embedding: [] },
  },
  {
    id: "anthropic",
    label: "Anthropic",
    provider: "openai_compatible",
    baseUrl: "https://api.anthropic.com/v1/",
    models: { llm: [{ name: "claude-sonnet-4-5" }, { name: "claude-haiku-4-5" }, { name: "claude-opus-4-1" }] },
  },
  {
    id: "gemini",
    label: "Google Gemini",
    provider: "openai_compatible",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai/",
    models: {
      llm: [{ name: "gemini-2.5-flash" }, { name: "gemini-2.5-pro" }, { name: "gemini-2.5-flash-lite" }],
      embedding: [{ name: "gemini-embedding-001", dimensions: 3072 }],
    },
  },
  {
    id: "mistral",
    label: "Mistral",
    provider: "openai_compatible",
    baseUrl: "https://api.mistral.ai/v1",
    models: {
      llm: [{ name: "mistral-small-latest" }, { name: "mistral-large-latest" }],
      embedding: [{ name: "mistral-embed", dimensions: 1024 }],
    },
  },
  {
    id: "groq",
    label: "Groq",
    provider: "openai_compatible",
    baseUrl: "https://api.groq.com/openai/v1",
    models: { llm: [{ name: "llama-3.3-70b-versatile" }, { name: "llama-3.1-8b-instant" }] },
  },
  {
    id: "deepseek",
    label: "DeepSeek",
    provider: "openai_compatible",
    baseUrl: "https://api.deepseek.com/v1",
    models: { llm: [{ name: "deepseek-chat" }, { name: "deepseek-reasoner" }] },
  },
  {
    id: "ollama",
    label: "Ollama",
    provider: "openai_compatible",
    baseUrl: "http://localhost:11434/v1",
    keyless: true,
    note: "presetLocalNote",
    models: {
      llm: [{ name: "llama3.2" }, { name: "qwen2.5" }],
      embedding: [{ name: "nomic-embed-text", dimensions: 768 }],
    },
  },
  {
    id: "vllm",
    label: "vLLM",
    provider: "openai_compatible",
    baseUrl: "http://localhost:8000/v1",
    keyless: true,
    note: "presetLocalNote",
    models: { llm: [], embedding: [], reranker: [] },
  },
  {
    id: "lm-studio",
    label: "LM Studio",
    provider: "openai_compatible",
    baseUrl: "http://localhost:1234/v1",
    keyless: true,
    note: "presetLocalNote",
    models: { llm: [], embedding: [] },
  },
  {
    id: "workers-ai",
    label: "Cloudflare Workers AI",
    provider: "workers_ai",
    baseUrl: "",
    note: "presetWorkersAiNote",
    models: {
      llm: [{ name: "@cf/meta/llama-3.3-70b-instruct-fp8-fast" }, { name: "@cf/meta/llama-3.1-8b-instruct" }],
      embedding: [
        { name: "@cf/baai/bge-m3", dimensions: 1024 },
        { name: "@cf/baai/bge-base-en-v1.5", dimensions: 768 },
      ],
      reranker: [{ name: "@cf/baai/bge-reranker-base" }],
    },
  },
];

/** The presets that offer models of `kind`. */
export const presetsFor = (kind: ModelKind) => PRESETS.filter((p) => p.models[kind] !== undefined);
