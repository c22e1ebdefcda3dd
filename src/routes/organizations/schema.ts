import { z } from "@hono/zod-openapi";
import { NameField } from "../../lib/openapi";
import { LOGO_MAX_BYTES } from "../../services/organization-logos";
import { InvitationCodeField } from "../../services/records/users";

/** A logo part of the multipart form (PUT and PATCH). */
export const logoPart = (description: string) =>
  z
    .any()
    .optional()
    .openapi({
      type: "string",
      format: "binary",
      description:
        `${description}: PNG, JPEG or GIF, at most ${LOGO_MAX_BYTES} bytes. An empty text part removes the ` +
        `logo; a text part may also carry a URL.`,
    });

// http(s) only: logos are shown in the console, where a `javascript:` or `data:` URL has no place.
const uri = (description: string) =>
  z.httpUrl().max(2048).nullable().optional().openapi({ description, example: "https://cdn.example.com/logo.png" });
const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Must be a HEX colour such as #3366FF")
  .nullable()
  .optional()
  .openapi({ description: "HEX colour", example: "#3366FF" });

/** Fields an organization's owner (or organization.manage) may write. */
export const OrganizationWrite = z.object({
  name: NameField("The organization's name, 1-200 characters after trimming", "Acme"),
  compactLogo: uri("Compact logo URL"),
  fullLogo: uri("Full logo URL"),
  themePrimaryColor: hexColor,
  companyName: z.string().max(200).nullable().optional().openapi({
    description: "Registered company name, at most 200 characters; null clears it, absent keeps it",
    example: "Acme Inc.",
  }),
  taxId: z
    .string()
    .regex(/^\d{8}$/, "Must be 8 digits")
    .nullable()
    .optional()
    .openapi({
      description: "Tax id, exactly 8 digits, stored unverified; null clears it, absent keeps it",
      example: "12345678",
    }),
  contactPhone: z.string().max(50).nullable().optional().openapi({
    description: "Contact phone number as free text, at most 50 characters; null clears it, absent keeps it",
    example: "+1 555 0100",
  }),
  applicationMetadata: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .openapi({
      description:
        "Your own data about the organization, kept with its keys as sent and returned as sent; it replaces what " +
        "was stored; null clears it (read back as {}), absent keeps it",
      example: {},
    }),
  invitationCode: InvitationCodeField("with the organization"),
});

/** Plan and feature fields: platform staff only (403 for anyone else who sends them). */
export const OrganizationStaffWrite = z.object({
  planId: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .openapi({
      description:
        "Staff only: one of the plans the operator configured (`PLANS`); a paid one (not `free` or `trial`, unless " +
        "`PLANS` says `paid`) also approves the organization, unless `approvalStatus` is sent with it",
      example: "enterprise",
    }),
  planExpiredAt: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({ description: "Staff only: plan expiry, epoch ms", example: null }),
  approvalStatus: z
    .enum(["pending", "approved", "rejected"])
    .optional()
    .openapi({ description: "Staff only", example: "approved" }),
  canUseCustomElasticsearch: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseVoiceAgent: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseMeetingRecords: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseCallCenter: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseHookSystem: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseAiGateway: z.boolean().optional().openapi({ description: "Staff only", example: true }),
  canUseMaigptWorkspaceMount: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  gatewayServiceFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "1.50" }),
  gatewayTrafficFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "0.00" }),
  platformProcessingFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "0.00" }),
  platformProcessingFeeEnabled: z.boolean().optional().openapi({ description: "Staff only", example: false }),
});
