/** Plans and their quotas. Numeric quotas are not in the spec; these are ours (docs/decisions.md). */
export const PLANS = {
  free: { id: "7b2e0c11-0001-4000-8000-000000000001", planName: "Free", planType: "free", createChatbotLimit: 3, monthlyWords: 100_000, uploadBytes: 100 * 2 ** 20 },
  trial: { id: "7b2e0c11-0001-4000-8000-000000000002", planName: "Trial", planType: "trial", createChatbotLimit: 10, monthlyWords: 500_000, uploadBytes: 500 * 2 ** 20 },
  pro: { id: "7b2e0c11-0001-4000-8000-000000000003", planName: "Pro", planType: "pro", createChatbotLimit: 50, monthlyWords: 5_000_000, uploadBytes: 10 * 2 ** 30 },
  enterprise: { id: "7b2e0c11-0001-4000-8000-000000000004", planName: "Enterprise", planType: "enterprise", createChatbotLimit: 1000, monthlyWords: 100_000_000, uploadBytes: 1024 * 2 ** 30 },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as [PlanId, ...PlanId[]];
export const planOf = (id: string) => PLANS[(id in PLANS ? id : "free") as PlanId];

/** Days an organization's data is kept after its plan lapsed. */
export const CLEANUP_AFTER_DAYS = 90;
