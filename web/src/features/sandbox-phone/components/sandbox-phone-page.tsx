/**
 * /sandbox/phone: the sandbox simulator of DESIGN.md "Channels", outside the app's guarded routes
 * (no login, no app layout). A phone-like screen that pairs with a sandbox connection by its QR
 * link (`?pair=<secret>`) or its 8-character code, keeps the device token in localStorage
 * (`sandbox.device`), then plays customers: pick or add one (name and phone) and chat with the
 * company as them. Unpaired (socket closed with 4001, `disconnected`, or a 401), it goes back to
 * the pairing screen.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { LogOut, WifiOff } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { LanguageSwitch } from "@/features/preferences/components/language-switch";
import { ThemeToggle } from "@/features/preferences/components/theme-toggle";
import { isUnpaired, pairDevice, sendPhoneEvents } from "../api/phone-api";
import { usePhoneSocket } from "../hooks/use-phone-socket";
import { createPhoneStore, type Customer, type Device } from "../lib/device-store";
import type { DeviceEvent, PairAnswer } from "../lib/protocol";
import { Conversation } from "./conversation";
import { CustomerPicker } from "./customer-picker";
import { PairingScreen, usePairingError } from "./pairing-screen";

const store = createPhoneStore();

function deviceOf(answer: PairAnswer): Device {
  return { token: answer.deviceToken, connection: answer.connection, pairedAt: Date.now() };
}

/** The phone frame: full screen on a phone, a phone-sized card on larger screens. */
function PhoneFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex h-dvh items-stretch justify-center bg-muted sm:items-center sm:p-4">
      <div className="flex h-full w-full flex-col overflow-hidden bg-background sm:h-[min(100%,860px)] sm:max-w-sm sm:rounded-[2rem] sm:border-8 sm:border-neutral-900 sm:shadow-2xl dark:sm:border-neutral-700">
        {children}
      </div>
    </div>
  );
}

/** The paired phone: customer list or conversation, one socket for both. */
function PairedPhone({ device, onUnpaired, onForget }: { device: Device; onUnpaired: () => void; onForget: () => void }) {
  const { t } = useLingui();
  const [customers, setCustomers] = useState<Customer[]>(() => store.customers());
  const [active, setActive] = useState<string | null>(() => {
    const phone = store.activeCustomer();
    return phone && store.customers().some((c) => c.phone === phone) ? phone : null;
  });
  const [unread, setUnread] = useState<ReadonlySet<string>>(() => new Set());
  const [catchUp, setCatchUp] = useState(0);
  const listeners = useRef(new Set<(event: DeviceEvent) => void>());
  const activeRef = useRef(active);
  activeRef.current = active;
  const token = device.token;

  const subscribe = useCallback((listener: (event: DeviceEvent) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const status = usePhoneSocket(token, {
    onEvent: (event) => {
      if (event.type === "message" && event.entry.direction === "to_customer") {
        // Delivered on receipt; the open conversation reports it read once shown.
        void sendPhoneEvents(token, [{ kind: "status", id: event.entry.id, status: "delivered" }]).catch((error: unknown) => {
          if (isUnpaired(error)) onUnpaired();
        });
        const phone = event.entry.phone;
        if (phone !== activeRef.current) {
          setUnread((current) => new Set(current).add(phone));
          if (!store.customers().some((c) => c.phone === phone)) setCustomers(store.saveCustomer({ name: phone, phone }));
        }
      }
      for (const listener of listeners.current) listener(event);
    },
    onOpen: (reconnected) => {
      if (reconnected) setCatchUp((n) => n + 1);
    },
    onUnpaired,
    onDrop: () => {
      // A drop may mean the token was revoked while the socket could not say so: ask once.
      const phone = activeRef.current;
      if (phone) void sendPhoneEvents(token, [{ kind: "presence", from: phone, state: "paused" }]).catch((error: unknown) => {
        if (isUnpaired(error)) onUnpaired();
      });
    },
  });

  const choose = (phone: string | null) => {
    setActive(phone);
    store.setActiveCustomer(phone);
    if (phone) {
      setUnread((current) => {
        const next = new Set(current);
        next.delete(phone);
        return next;
      });
    }
  };

  const customer = customers.find((c) => c.phone === active) ?? null;
  const connectionName = device.connection.name;
  return (
    <>
      {status !== "open" && !customer ? (
        <p className="flex items-center justify-center gap-2 bg-warning px-3 py-1 text-xs text-warning-foreground" role="status">
          <WifiOff className="size-3.5" aria-hidden />
          {t`Reconnecting…`}
        </p>
      ) : null}
      {customer ? (
        <Conversation
          key={customer.phone}
          device={device}
          customer={customer}
          store={store}
          subscribe={subscribe}
          catchUp={catchUp}
          online={status === "open"}
          onUnpaired={onUnpaired}
          onBack={() => choose(null)}
        />
      ) : (
        <div className="flex min-h-0 flex-1 flex-col">
          <header className="flex items-center gap-1 bg-[#008069] px-3 py-2 text-white dark:bg-[#202c33]">
            <div className="grid min-w-0 flex-1">
              <h1 className="truncate text-base font-semibold">{t`Sandbox phone`}</h1>
              <p className="truncate text-xs opacity-80">{t`Paired with ${connectionName}`}</p>
            </div>
            <div className="flex items-center text-white [&_button]:text-white [&_button:hover]:bg-white/10 [&_button:hover]:text-white">
              <LanguageSwitch />
              <ThemeToggle />
              <Button variant="ghost" size="icon" onClick={onForget} aria-label={t`Unpair this phone`} title={t`Unpair this phone`}>
                <LogOut />
              </Button>
            </div>
          </header>
          <div className="min-h-0 flex-1">
            <CustomerPicker
              customers={customers}
              unread={unread}
              onChoose={choose}
              onAdd={(added) => {
                setCustomers(store.saveCustomer(added));
                choose(added.phone);
              }}
              onRemove={(phone) => setCustomers(store.removeCustomer(phone))}
            />
          </div>
        </div>
      )}
    </>
  );
}

/** The sandbox phone page. */
export function SandboxPhonePage() {
  const { t } = useLingui();
  const describe = usePairingError();
  const [device, setDevice] = useState<Device | null>(() => store.device());
  const [qrPairing, setQrPairing] = useState<{ secret: string } | null>(() => {
    if (typeof window === "undefined") return null;
    const secret = new URLSearchParams(window.location.search).get("pair");
    return secret ? { secret } : null;
  });
  const [pairError, setPairError] = useState<string | null>(null);

  useEffect(() => {
    document.title = t`Sandbox phone`;
  }, [t]);

  // Opening the QR's link pairs at once (replacing any previous pairing of this browser). The
  // secret works once, so the request is sent once per secret (also under StrictMode's re-run).
  const pairingSecret = useRef<string | null>(null);
  useEffect(() => {
    if (!qrPairing || pairingSecret.current === qrPairing.secret) return;
    pairingSecret.current = qrPairing.secret;
    const url = new URL(window.location.href);
    url.searchParams.delete("pair");
    window.history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
    pairDevice({ secret: qrPairing.secret })
      .then((answer) => {
        const paired = deviceOf(answer);
        store.saveDevice(paired);
        setPairError(null);
        setDevice(paired);
      })
      .catch((error: unknown) => setPairError(describe(error)))
      .finally(() => setQrPairing(null));
  }, [qrPairing, describe]);

  const unpairedMessage = t`This phone was unpaired. Pair it again to keep playing customers.`;
  const unpair = useCallback(
    (byServer: boolean) => {
      store.forgetDevice();
      setPairError(byServer ? unpairedMessage : null);
      setDevice(null);
    },
    [unpairedMessage],
  );

  let content;
  if (qrPairing) {
    content = (
      <div className="flex h-full flex-col items-center justify-center gap-3 p-6">
        <Spinner className="size-8 text-muted-foreground" label={t`Pairing…`} />
        <p className="text-sm text-muted-foreground">{t`Pairing…`}</p>
      </div>
    );
  } else if (!device) {
    content = (
      <PairingScreen
        initialError={pairError}
        onPaired={(answer) => {
          const paired = deviceOf(answer);
          store.saveDevice(paired);
          setPairError(null);
          setDevice(paired);
        }}
      />
    );
  } else {
    content = <PairedPhone key={device.token} device={device} onUnpaired={() => unpair(true)} onForget={() => unpair(false)} />;
  }
  return <PhoneFrame>{content}</PhoneFrame>;
}
