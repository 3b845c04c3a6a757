/**
 * What the sandbox phone remembers in localStorage: the paired device (`sandbox.device`: token and
 * connection), the customers it plays (`sandbox.customers`), the one chosen (`sandbox.customer`),
 * and how far the company has read each customer's messages (`sandbox.reads`), so the blue ticks
 * survive a reload. Storage failures (private mode) behave as empty.
 */
import { z } from "zod";
import { phoneSchema } from "../../../../../schema/validation/phone";

/** localStorage key of the paired device. */
export const DEVICE_KEY = "sandbox.device";
/** localStorage key of the customer list. */
export const CUSTOMERS_KEY = "sandbox.customers";
/** localStorage key of the chosen customer's phone. */
export const ACTIVE_CUSTOMER_KEY = "sandbox.customer";
/** localStorage key of the read marks (connection → phone → time read up to). */
export const READS_KEY = "sandbox.reads";

/** Storage the phone needs (localStorage in the browser, a Map-backed fake in tests). */
export type PhoneStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const device = z.object({ token: z.string().min(1), connection: z.object({ id: z.string(), name: z.string() }), pairedAt: z.number() });
/** A paired device. */
export type Device = z.infer<typeof device>;

const customer = z.object({ name: z.string(), phone: z.string() });
/** A simulated customer: display name and E.164 phone. */
export type Customer = z.infer<typeof customer>;

const reads = z.record(z.string(), z.record(z.string(), z.number()));

function read<T>(storage: PhoneStorage | undefined, key: string, schema: z.ZodType<T>): T | null {
  try {
    const text = storage?.getItem(key);
    if (!text) return null;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(storage: PhoneStorage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or unavailable: the phone still works for this visit
  }
}

/** The store over `storage` (default: the browser's localStorage). */
export function createPhoneStore(storage: () => PhoneStorage | undefined = () => (typeof localStorage === "undefined" ? undefined : localStorage)) {
  return {
    device: (): Device | null => read(storage(), DEVICE_KEY, device),
    saveDevice(value: Device): void {
      write(storage(), DEVICE_KEY, value);
    },
    forgetDevice(): void {
      try {
        storage()?.removeItem(DEVICE_KEY);
      } catch {
        // nothing stored
      }
    },
    customers: (): Customer[] => read(storage(), CUSTOMERS_KEY, z.array(customer)) ?? [],
    /** Adds or renames a customer (by phone); answers the new list. */
    saveCustomer(value: Customer): Customer[] {
      const list = this.customers().filter((c) => c.phone !== value.phone);
      const next = [value, ...list];
      write(storage(), CUSTOMERS_KEY, next);
      return next;
    },
    removeCustomer(phone: string): Customer[] {
      const next = this.customers().filter((c) => c.phone !== phone);
      write(storage(), CUSTOMERS_KEY, next);
      return next;
    },
    activeCustomer: (): string | null => read(storage(), ACTIVE_CUSTOMER_KEY, z.string()),
    setActiveCustomer(phone: string | null): void {
      if (phone === null) {
        try {
          storage()?.removeItem(ACTIVE_CUSTOMER_KEY);
        } catch {
          // nothing stored
        }
      } else write(storage(), ACTIVE_CUSTOMER_KEY, phone);
    },
    /** Time up to which the company read `phone`'s messages on `connectionId` (0: none). */
    readUpTo(connectionId: string, phone: string): number {
      return read(storage(), READS_KEY, reads)?.[connectionId]?.[phone] ?? 0;
    },
    markRead(connectionId: string, phone: string, upTo: number): void {
      const all = read(storage(), READS_KEY, reads) ?? {};
      const forConnection = all[connectionId] ?? {};
      if ((forConnection[phone] ?? 0) >= upTo) return;
      write(storage(), READS_KEY, { ...all, [connectionId]: { ...forConnection, [phone]: upTo } });
    },
  };
}

/** The phone's store. */
export type PhoneStore = ReturnType<typeof createPhoneStore>;

/** A typed phone in E.164 (`+55 11 91234-5678` → `+5511912345678`), or null when not valid. */
export function normalisePhone(value: string): string | null {
  const parsed = phoneSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A random Brazilian mobile number, `+55 11 9xxxx-xxxx`, to suggest for a new customer. */
export function randomCustomerPhone(random: () => number = Math.random): string {
  const digits = Array.from({ length: 8 }, () => Math.floor(random() * 10)).join("");
  return `+55 11 9${digits.slice(0, 4)}-${digits.slice(4)}`;
}

/** `+5511912345678` → `+55 11 91234-5678` for Brazilian mobiles; other numbers as stored. */
export function displayPhone(phone: string): string {
  const match = /^\+55(\d{2})(9\d{4})(\d{4})$/.exec(phone);
  return match ? `+55 ${match[1]} ${match[2]}-${match[3]}` : phone;
}
