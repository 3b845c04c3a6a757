/**
 * The "My account" form (spec §2 settings tab, §5 "Profile update is rejected locally if neither
 * name nor image is given", §7 PUT /me multipart {name, image, phone}).
 */
import { z } from "zod";
import { nameSchema } from "../../../../../schema/validation/common";
import { phoneSchema } from "../../../../../schema/validation/phone";
import { optionalField } from "./form-fields";

/** Values of the form; the image travels beside them (a File is not a form text value). */
export type ProfileValues = { name: string; phone: string };

/** Validation of the typed values: a blank name is allowed here, {@link profileProblem} decides. */
export const profileFormSchema = z.object({
  name: optionalField(nameSchema),
  phone: optionalField(phoneSchema),
});

/**
 * The spec §5 local rule: `name_or_image_required` (under the name field) when the name is blank
 * and no new image is chosen; null when the update may be sent.
 */
export function profileProblem(values: Pick<ProfileValues, "name">, image: File | null): "name_or_image_required" | null {
  return values.name.trim() === "" && !image ? "name_or_image_required" : null;
}

/**
 * The multipart body of PUT /api/me: `name` and `phone` when not blank (the worker reads blanks as
 * absent), `image` when a new one is chosen.
 */
export function buildProfileForm(values: ProfileValues, image: File | null): FormData {
  const form = new FormData();
  const name = values.name.trim();
  const phone = values.phone.trim();
  if (name) form.set("name", name);
  if (phone) form.set("phone", phone);
  if (image) form.set("image", image);
  return form;
}
