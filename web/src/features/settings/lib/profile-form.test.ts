import { describe, expect, it } from "vitest";
import { buildProfileForm, profileFormSchema, profileProblem } from "./profile-form";
import { imageFileProblem, MAX_IMAGE_BYTES } from "./form-fields";

const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "me.png", { type: "image/png" });

describe("PUT /api/me body (spec §5 'rejected locally if neither name nor image is given')", () => {
  it("refuses a blank name without an image, allows it with one", () => {
    expect(profileProblem({ name: "   " }, null)).toBe("name_or_image_required");
    expect(profileProblem({ name: "" }, png)).toBeNull();
    expect(profileProblem({ name: "Ana" }, null)).toBeNull();
  });

  it("sends only what is present", () => {
    const form = buildProfileForm({ name: " Ana ", phone: "" }, null);
    expect([...form.keys()]).toEqual(["name"]);
    expect(form.get("name")).toBe("Ana");
    const withImage = buildProfileForm({ name: "", phone: "+351 912 345 678" }, png);
    expect([...withImage.keys()].sort()).toEqual(["image", "phone"]);
  });

  it("validates filled fields with the shared schemas and lets blanks through", () => {
    expect(profileFormSchema.safeParse({ name: "", phone: "" }).success).toBe(true);
    const bad = profileFormSchema.safeParse({ name: "!", phone: "abc" });
    expect(bad.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["name", "name_too_short"],
      ["phone", "invalid_phone"],
    ]);
  });
});

describe("image files", () => {
  it("accepts PNG, JPEG, WebP and GIF up to 2 MiB", () => {
    expect(imageFileProblem({ type: "image/png", size: 10 })).toBeNull();
    expect(imageFileProblem({ type: "image/webp", size: MAX_IMAGE_BYTES })).toBeNull();
    expect(imageFileProblem({ type: "image/svg+xml", size: 10 })).toBe("invalid_image");
    expect(imageFileProblem({ type: "image/jpeg", size: MAX_IMAGE_BYTES + 1 })).toBe("image_too_large");
  });
});
