/** The integration block's address guard (issue 5 "an integration may only call public http(s) addresses"). */
import { describe, expect, it } from "vitest";
import { checkPublicHttpUrl, isPublicHttpUrl, isPublicIpAddress } from "./url-guard";

describe("isPublicHttpUrl", () => {
  it.each([
    "https://api.example.com/v1/leads?x=1",
    "http://example.com:8080/",
    "https://8.8.8.8/",
    "https://[2606:4700:4700::1111]/dns-query",
    "http://[::ffff:8.8.8.8]/",
    "https://sub.domain.co.uk./path",
  ])("accepts %s", (url) => {
    expect(isPublicHttpUrl(url)).toBe(true);
  });

  it.each([
    ["ftp://example.com/", "not_http"],
    ["file:///etc/passwd", "not_http"],
    ["javascript:alert(1)", "not_http"],
    ["not a url", "invalid_url"],
    ["http://user:pass@example.com/", "credentials"],
    ["http://localhost/", "local_name"],
    ["http://LOCALHOST./", "local_name"],
    ["http://app.localhost/", "local_name"],
    ["http://printer.local/", "local_name"],
    ["http://metadata.google.internal/", "local_name"],
    ["http://intranet/", "local_name"],
    ["http://127.0.0.1/", "private_address"],
    ["http://127.1/", "private_address"],
    ["http://2130706433/", "private_address"],
    ["http://0x7f000001/", "private_address"],
    ["http://0177.0.0.1/", "private_address"],
    ["http://0.0.0.0/", "private_address"],
    ["http://10.1.2.3/", "private_address"],
    ["http://172.16.0.1/", "private_address"],
    ["http://172.31.255.255/", "private_address"],
    ["http://192.168.1.1/", "private_address"],
    ["http://169.254.169.254/latest/meta-data", "private_address"],
    ["http://100.64.0.1/", "private_address"],
    ["http://100.127.255.255/", "private_address"],
    ["http://224.0.0.1/", "private_address"],
    ["http://255.255.255.255/", "private_address"],
    ["http://198.18.0.1/", "private_address"],
    ["http://[::1]/", "private_address"],
    ["http://[::]/", "private_address"],
    ["http://[fe80::1]/", "private_address"],
    ["http://[fc00::1]/", "private_address"],
    ["http://[fd12:3456:789a::1]/", "private_address"],
    ["http://[ff02::1]/", "private_address"],
    ["http://[::ffff:127.0.0.1]/", "private_address"],
    ["http://[::ffff:10.0.0.1]/", "private_address"],
    ["http://[64:ff9b::a9fe:a9fe]/", "private_address"],
    ["http://[2002:c0a8:0101::1]/", "private_address"],
    ["http://[2001:db8::1]/", "private_address"],
  ])("refuses %s (%s)", (url, reason) => {
    expect(checkPublicHttpUrl(url)).toEqual({ ok: false, reason });
  });

  it("keeps 172.32.0.0 and 100.128.0.0 (just outside private and CGNAT) public", () => {
    expect(isPublicHttpUrl("http://172.32.0.1/")).toBe(true);
    expect(isPublicHttpUrl("http://100.128.0.1/")).toBe(true);
  });
});

describe("isPublicIpAddress (the performer's check after DNS)", () => {
  it.each([
    ["93.184.216.34", true],
    ["2606:4700::1111", true],
    ["[2a00:1450:4001::200e]", true],
    ["10.0.0.1", false],
    ["::1", false],
    ["::ffff:192.168.0.1", false],
    ["fe80::1%eth0", false],
    ["not-an-ip", false],
    ["1.2.3.256", false],
  ])("%s → %s", (address, expected) => {
    expect(isPublicIpAddress(address)).toBe(expected);
  });
});
