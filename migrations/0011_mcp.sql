CREATE TABLE `connectors` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`mcp_registry_id` text NOT NULL,
	`display_name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`url_variables` text,
	`server_url` text NOT NULL,
	`auth_headers_sealed` text,
	`is_enabled` integer DEFAULT true NOT NULL,
	`created_by_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`mcp_registry_id`) REFERENCES `mcp_registry`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `connectors_org_idx` ON `connectors` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mcp_credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`member_id` text NOT NULL,
	`tool_id` text,
	`connector_id` text,
	`headers_sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connector_id`) REFERENCES `connectors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_credentials_member_tool_uq` ON `mcp_credentials` (`member_id`,`tool_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_credentials_member_connector_uq` ON `mcp_credentials` (`member_id`,`connector_id`);--> statement-breakpoint
CREATE INDEX `mcp_credentials_connector_idx` ON `mcp_credentials` (`connector_id`);--> statement-breakpoint
CREATE INDEX `mcp_credentials_tool_idx` ON `mcp_credentials` (`tool_id`);--> statement-breakpoint
CREATE TABLE `mcp_registry` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`icon` text,
	`server_url_template` text NOT NULL,
	`url_variables` text NOT NULL,
	`auth_kind` text NOT NULL,
	`auth_hint` text DEFAULT '' NOT NULL,
	`documentation_url` text,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_registry_slug_unique` ON `mcp_registry` (`slug`);--> statement-breakpoint
-- The MCP registry catalogue (CONTRACT section 12): fixed ids, read-only through the API.
INSERT INTO mcp_registry (id, slug, name, description, icon, server_url_template, url_variables, auth_kind, auth_hint, documentation_url, sort_order, created_at, updated_at) VALUES
  ('00000000-0000-7000-8100-000000000001', 'custom', 'Custom MCP server', 'Any server speaking MCP over Streamable HTTP (or the older HTTP+SSE transport) at a URL you give.', NULL, '{serverUrl}', '[{"name":"serverUrl","description":"The server''s MCP endpoint, e.g. https://mcp.example.com/mcp"}]', 'headers', 'Whatever the server expects, e.g. Authorization: Bearer <token>', 'https://modelcontextprotocol.io/docs/learn/architecture', 0, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000002', 'github', 'GitHub', 'Repositories, issues, pull requests and code search.', 'https://github.githubassets.com/favicons/favicon.svg', 'https://api.githubcopilot.com/mcp/', '[]', 'headers', 'Authorization: Bearer <personal access token>', 'https://github.com/github/github-mcp-server', 10, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000003', 'linear', 'Linear', 'Issues, projects and comments in Linear.', 'https://linear.app/favicon.ico', 'https://mcp.linear.app/mcp', '[]', 'oauth', 'Authorization: Bearer <OAuth access token or API key>', 'https://linear.app/docs/mcp', 20, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000004', 'notion', 'Notion', 'Search and edit pages and databases of a Notion workspace.', 'https://www.notion.so/images/favicon.ico', 'https://mcp.notion.com/mcp', '[]', 'oauth', 'Authorization: Bearer <OAuth access token>', 'https://developers.notion.com/docs/mcp', 30, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000005', 'sentry', 'Sentry', 'Errors, issues and releases of Sentry projects.', 'https://sentry.io/favicon.ico', 'https://mcp.sentry.dev/mcp', '[]', 'oauth', 'Authorization: Bearer <OAuth access token>', 'https://docs.sentry.io/product/sentry-mcp/', 40, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000006', 'stripe', 'Stripe', 'Customers, payments, invoices and the Stripe documentation.', 'https://stripe.com/favicon.ico', 'https://mcp.stripe.com', '[]', 'headers', 'Authorization: Bearer <restricted API key>', 'https://docs.stripe.com/mcp', 50, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000007', 'atlassian', 'Atlassian', 'Jira issues and Confluence pages.', 'https://www.atlassian.com/favicon.ico', 'https://mcp.atlassian.com/v1/sse', '[]', 'oauth', 'Authorization: Bearer <OAuth access token>', 'https://support.atlassian.com/rovo/docs/getting-started-with-the-atlassian-remote-mcp-server/', 60, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000008', 'hugging-face', 'Hugging Face', 'Models, data sets, Spaces and papers on the Hugging Face Hub.', 'https://huggingface.co/favicon.ico', 'https://huggingface.co/mcp', '[]', 'headers', 'Authorization: Bearer <access token> (optional)', 'https://huggingface.co/settings/mcp', 70, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000009', 'cloudflare-docs', 'Cloudflare documentation', 'Searches the Cloudflare developer documentation.', 'https://www.cloudflare.com/favicon.ico', 'https://docs.mcp.cloudflare.com/mcp', '[]', 'none', '', 'https://github.com/cloudflare/mcp-server-cloudflare', 80, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000010', 'deepwiki', 'DeepWiki', 'Questions about public GitHub repositories, answered from their documentation.', 'https://deepwiki.com/favicon.ico', 'https://mcp.deepwiki.com/mcp', '[]', 'none', '', 'https://docs.devin.ai/work-with-devin/deepwiki-mcp', 90, 1767225600000, 1767225600000),
  ('00000000-0000-7000-8100-000000000011', 'shopify-storefront', 'Shopify storefront', 'Products, cart and store policies of one Shopify store.', 'https://cdn.shopify.com/static/shopify-favicon.png', 'https://{shop}.myshopify.com/api/mcp', '[{"name":"shop","description":"The store''s myshopify subdomain, e.g. my-store"}]', 'none', '', 'https://shopify.dev/docs/apps/build/storefront-mcp', 100, 1767225600000, 1767225600000);
