export * from "./accounts";
export * from "./organizations";
export * from "./models";
export * from "./chatbots";
export * from "./inboxes";
export * from "./contacts";
export * from "./conversations";
export * from "./webhooks";
