/**
 * The connection form's values and their conversion to the worker's request bodies, validated with
 * the same zod schemas the worker uses (schema/validation/connections.ts). The first issue of each
 * field becomes that field's error code.
 */
import type { FieldErrors, Resolver } from "react-hook-form";
import { connectionCreateInput, connectionUpdateInput, type ConnectionCreateInput } from "../../../../../schema/validation/connections";
import type { Connection, ConnectionUpdate } from "../api/connections-api";

/**
 * The form's flat values (the cloud fields are ignored for sandbox connections; `phone` is ignored
 * for Cloud API ones, whose number is the display number Meta answers when the token proves it).
 */
export type ConnectionFormValues = {
  name: string;
  channel: "sandbox" | "whatsapp-cloud" | "whatsapp-qr";
  phone: string;
  greetingMessage: string;
  farewellMessage: string;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  /** WhatsApp (QR code): this connection's own Evolution API server and key (blank: the global ones). */
  evolutionUrl: string;
  evolutionApiKey: string;
};

const FIELDS: readonly (keyof ConnectionFormValues)[] = [
  "name",
  "channel",
  "phone",
  "greetingMessage",
  "farewellMessage",
  "phoneNumberId",
  "wabaId",
  "accessToken",
  "evolutionUrl",
  "evolutionApiKey",
];

function isField(key: unknown): key is keyof ConnectionFormValues {
  return FIELDS.some((field) => field === key);
}

/** Empty values for a new connection (sandbox by default). */
export const EMPTY_CONNECTION_FORM: ConnectionFormValues = {
  name: "",
  channel: "sandbox",
  phone: "",
  greetingMessage: "",
  farewellMessage: "",
  phoneNumberId: "",
  wabaId: "",
  accessToken: "",
  evolutionUrl: "",
  evolutionApiKey: "",
};

/** The form's values for editing `connection` (the access token is never returned: left blank). */
export function formValuesOf(connection: Connection): ConnectionFormValues {
  return {
    name: connection.name,
    channel: connection.channel === "whatsapp-cloud" || connection.channel === "whatsapp-qr" ? connection.channel : "sandbox",
    phone: connection.phone ?? "",
    greetingMessage: connection.greetingMessage,
    farewellMessage: connection.farewellMessage,
    phoneNumberId: connection.phoneNumberId ?? "",
    wabaId: connection.wabaId ?? "",
    accessToken: "",
    evolutionUrl: "",
    evolutionApiKey: "",
  };
}

const blankToUndefined = (value: string) => (value.trim() === "" ? undefined : value);

/** POST /api/connections body of the form's values. */
export function toCreateInput(values: ConnectionFormValues): ConnectionCreateInput {
  const common = {
    name: values.name,
    greetingMessage: values.greetingMessage,
    farewellMessage: values.farewellMessage,
  };
  if (values.channel === "sandbox") return { channel: "sandbox", ...common, phone: blankToUndefined(values.phone) };
  if (values.channel === "whatsapp-qr") {
    return {
      channel: "whatsapp-qr",
      ...common,
      phone: blankToUndefined(values.phone),
      evolutionUrl: blankToUndefined(values.evolutionUrl),
      evolutionApiKey: blankToUndefined(values.evolutionApiKey),
    };
  }
  return {
    channel: "whatsapp-cloud",
    ...common,
    phoneNumberId: values.phoneNumberId,
    wabaId: blankToUndefined(values.wabaId),
    accessToken: values.accessToken,
  };
}

/** PUT /api/connections/{id} body: a blank access token keeps the stored one. */
export function toUpdateInput(values: ConnectionFormValues): ConnectionUpdate {
  const input: ConnectionUpdate = {
    name: values.name,
    greetingMessage: values.greetingMessage,
    farewellMessage: values.farewellMessage,
  };
  if (values.channel === "sandbox" || values.channel === "whatsapp-qr") input.phone = values.phone;
  if (values.channel === "whatsapp-cloud") {
    const wabaId = blankToUndefined(values.wabaId);
    const accessToken = blankToUndefined(values.accessToken);
    if (wabaId) input.wabaId = wabaId;
    if (accessToken) input.accessToken = accessToken;
  }
  return input;
}

/** Field → error code of the request body the values make, validated with the worker's schema. */
export function validateConnectionForm(values: ConnectionFormValues, mode: "create" | "edit"): Partial<Record<keyof ConnectionFormValues, string>> {
  const result = mode === "create" ? connectionCreateInput.safeParse(toCreateInput(values)) : connectionUpdateInput.safeParse(toUpdateInput(values));
  const errors: Partial<Record<keyof ConnectionFormValues, string>> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (isField(key) && errors[key] === undefined) errors[key] = issue.message;
  }
  return errors;
}

/** A react-hook-form resolver over {@link validateConnectionForm}. */
export function connectionFormResolver(mode: "create" | "edit"): Resolver<ConnectionFormValues> {
  return async (values) => {
    const codes = validateConnectionForm(values, mode);
    const errors: FieldErrors<ConnectionFormValues> = {};
    for (const field of FIELDS) {
      const code = codes[field];
      if (code) errors[field] = { type: "validate", message: code };
    }
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
  };
}
