/**
 * The integration block may only call public http(s) addresses (issue 5 "Guards"), so a flow
 * cannot reach the platform's own network, a cloud metadata endpoint or the contact's router.
 *
 * `checkPublicHttpUrl` looks at the URL alone: scheme, host names that only resolve inside a
 * network (`localhost`, `*.local`, `*.internal`, single-label names), and IP literals in private,
 * loopback, link-local, CGNAT, documentation, multicast and reserved ranges, IPv4 and IPv6 (IPv4
 * written as hex, octal or one integer is normalised by the WHATWG URL parser first; IPv4-mapped,
 * NAT64 and 6to4 IPv6 addresses are judged by the IPv4 inside).
 *
 * A host NAME that passes may still resolve to a private address (DNS rebinding): the performer
 * must resolve it (e.g. DNS over HTTPS) and check every address with `isPublicIpAddress` before
 * connecting, and must not follow redirects without checking them again (fetch `redirect: "manual"`).
 */

/** Why an address was refused. */
export type UrlRefusal = "invalid_url" | "not_http" | "credentials" | "local_name" | "private_address";

const IPV4_BLOCKED: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function parseIpv4(text: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  let value = 0;
  for (let i = 1; i <= 4; i += 1) {
    const octet = Number(match[i]);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

const IPV4_RANGES = IPV4_BLOCKED.map(([base, prefix]) => ({ base: parseIpv4(base) ?? 0, size: 2 ** (32 - prefix) }));

function isPublicIpv4(value: number): boolean {
  return !IPV4_RANGES.some((range) => value >= range.base && value < range.base + range.size);
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function parseIpv6(text: string): number[] | null {
  let head = text.toLowerCase();
  const zone = head.indexOf("%");
  if (zone >= 0) head = head.slice(0, zone);
  let tail: number[] = [];
  const v4 = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(head);
  if (v4) {
    const value = parseIpv4(v4[2] ?? "");
    if (value === null) return null;
    tail = [Math.floor(value / 65536), value % 65536];
    head = (v4[1] ?? "").endsWith("::") ? (v4[1] ?? "") : (v4[1] ?? "").slice(0, -1);
  }
  const parts = head.split("::");
  if (parts.length > 2) return null;
  const groups = (part: string | undefined): number[] | null => {
    if (!part) return [];
    const out: number[] = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const left = groups(parts[0]);
  const right = groups(parts[1]);
  if (!left || !right) return null;
  const total = left.length + right.length + tail.length;
  if (parts.length === 1) return total === 8 ? [...left, ...tail] : null;
  if (total > 7) return null;
  return [...left, ...new Array<number>(8 - total).fill(0), ...right, ...tail];
}

function isPublicIpv6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = g;
  const embedded = h * 65536 + i;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0xffff) return isPublicIpv4(embedded); // ::ffff:a.b.c.d, IPv4-mapped
    return false; // ::, ::1, ::a.b.c.d (IPv4-compatible, deprecated)
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return isPublicIpv4(embedded); // NAT64
  if (a === 0x64 && b === 0xff9b && c === 1) return false; // local-use NAT64
  if (a === 0x2002) return isPublicIpv4(b * 65536 + c); // 6to4
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return false; // discard
  if (a === 0x2001 && b < 0x200) return false; // IETF protocol assignments (Teredo, ORCHID…)
  if (a === 0x2001 && b === 0xdb8) return false; // documentation
  if ((a & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false; // link-local
  if ((a & 0xffc0) === 0xfec0) return false; // site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return false; // multicast
  return true;
}

/**
 * Whether an IP address (IPv4 dotted, or IPv6 with or without brackets) is publicly routable.
 * For the performer's check of the addresses a host name resolves to. Not an address → false.
 */
export function isPublicIpAddress(address: string): boolean {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const v4 = parseIpv4(text);
  if (v4 !== null) return isPublicIpv4(v4);
  const v6 = text.includes(":") ? parseIpv6(text) : null;
  return v6 !== null && isPublicIpv6(v6);
}

const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa", ".corp"];

/**
 * Checks an address for the integration block. Refuses (`reason`): `invalid_url`, `not_http`
 * (another scheme), `credentials` (`user:pass@` in the URL), `local_name` (localhost, `*.local`,
 * `*.internal`, single-label names…), `private_address` (an IP literal outside public ranges).
 * Answers the parsed URL when it passes. Never throws.
 */
export function checkPublicHttpUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: UrlRefusal } {
  if (!URL.canParse(raw)) return { ok: false, reason: "invalid_url" };
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "not_http" };
  if (url.username || url.password) return { ok: false, reason: "credentials" };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return { ok: false, reason: "invalid_url" };
  if (host.startsWith("[")) return isPublicIpAddress(host) ? { ok: true, url } : { ok: false, reason: "private_address" };
  if (parseIpv4(host) !== null) return isPublicIpAddress(host) ? { ok: true, url } : { ok: false, reason: "private_address" };
  if (host === "localhost" || !host.includes(".") || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return { ok: false, reason: "local_name" };
  return { ok: true, url };
}

/** Whether the integration block may call `url` (see checkPublicHttpUrl). */
export function isPublicHttpUrl(url: string): boolean {
  return checkPublicHttpUrl(url).ok;
}
