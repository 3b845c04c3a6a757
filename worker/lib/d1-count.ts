/**
 * Counts D1 round trips (issue 16: "at most three per stored message" is asserted by a test, not
 * claimed). Off unless a test turns it on with `startD1Count()`: then every D1 binding handed to
 * drizzle by `getDb` (worker/lib/db.ts) is wrapped, and each statement executed on its own
 * (`run`, `all`, `first`, `raw`) or each `batch` (however many statements it carries) counts one.
 * The Durable Objects run in the test's isolate, so their queries count too. Never on in production
 * (the wrapper is not even created).
 */

let counting = false;
let trips = 0;
const log: string[] = [];
/** The real statement behind each wrapped one (the binding's batch takes only real ones). */
const unwrapped = new WeakMap<object, D1PreparedStatement>();

/** Starts counting from zero (tests only). */
export function startD1Count(): void {
  counting = true;
  trips = 0;
  log.length = 0;
}

/** Stops counting; answers the round trips since `startD1Count` and the SQL of each (for messages). */
export function stopD1Count(): { trips: number; statements: string[] } {
  counting = false;
  return { trips, statements: [...log] };
}

function counted(what: string): void {
  if (!counting) return;
  trips += 1;
  log.push(what.slice(0, 160));
}

/** `d1` wrapped to count round trips while counting is on (itself otherwise). */
export function countingD1(d1: D1Database): D1Database {
  if (!counting) return d1;
  const wrapStatement = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), query);
        if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
          return (...args: unknown[]) => {
            counted(query);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    unwrapped.set(proxy, statement);
    return proxy;
  };
  return new Proxy(d1, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query), query);
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counted(`batch of ${statements.length}`);
          return target.batch(statements.map((s) => unwrapped.get(s) ?? s));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
