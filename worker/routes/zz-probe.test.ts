import { describe, expect, it } from "vitest";
import { call, countRows, expectStatus, lastMailTo, register } from "../test/helpers";

let email = "";
describe("probe", () => {
  it("a", async () => {
    const a = await register();
    email = a.email;
    const r = await call("POST", "/api/forgot-password", { body: { email } });
    await expectStatus(r, 200);
    console.log("mail right after:", (await lastMailTo(email))?.subject);
    await new Promise((r) => setTimeout(r, 50));
    console.log("mail after 50ms:", (await lastMailTo(email))?.subject);
    console.log("users", await countRows("users"));
    const bad = await call("POST", "/api/login", { body: "{bad" });
    console.log(bad.status, await bad.text());
  });
  it("b", async () => {
    console.log("users in b", await countRows("users"), await countRows("users", "email = ?", email));
  });
});
