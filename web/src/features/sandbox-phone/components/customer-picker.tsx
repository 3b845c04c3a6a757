/**
 * Choosing which customer the phone plays: the remembered customers (with a dot when the company
 * wrote to one meanwhile) and a form to add one by name and phone.
 */
import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { Dices, Trash2, UserPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { displayPhone, normalisePhone, randomCustomerPhone, type Customer } from "../lib/device-store";

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? "")
    .join("");
}

/** The list and the add form. */
export function CustomerPicker({
  customers,
  unread,
  onChoose,
  onAdd,
  onRemove,
}: {
  customers: Customer[];
  unread: ReadonlySet<string>;
  onChoose: (phone: string) => void;
  onAdd: (customer: Customer) => void;
  onRemove: (phone: string) => void;
}) {
  const { t } = useLingui();
  const [name, setName] = useState("");
  const [phone, setPhone] = useState(() => randomCustomerPhone());
  const [errors, setErrors] = useState<{ name?: string; phone?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const normalised = normalisePhone(phone);
    const next: { name?: string; phone?: string } = {};
    if (trimmed.length < 2) next.name = t`Type the customer's name (at least 2 characters).`;
    if (!normalised) next.phone = t`Enter a valid phone number with area code.`;
    setErrors(next);
    if (next.name || next.phone || !normalised) return;
    onAdd({ name: trimmed, phone: normalised });
    setName("");
    setPhone(randomCustomerPhone());
  };

  return (
    <div className="flex h-full flex-col overflow-y-auto">
      <section className="grid gap-3 p-4" aria-labelledby="sandbox-customers-title">
        <h2 id="sandbox-customers-title" className="text-sm font-semibold text-muted-foreground">
          {t`Play a customer`}
        </h2>
        {customers.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
            {t`No customers yet. Add one below to start a conversation with the company.`}
          </p>
        ) : (
          <ul className="grid gap-1" aria-label={t`Customers`}>
            {customers.map((customer) => {
              const customerName = customer.name;
              return (
                <li key={customer.phone} className="flex items-center gap-1">
                  <button
                    type="button"
                    onClick={() => onChoose(customer.phone)}
                    className="flex min-w-0 flex-1 items-center gap-3 rounded-lg px-2 py-2 text-left outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-[#128c7e] text-sm font-semibold text-white" aria-hidden>
                      {initials(customer.name)}
                    </span>
                    <span className="grid min-w-0 flex-1">
                      <span className="truncate font-medium">{customer.name}</span>
                      <span className="truncate text-xs text-muted-foreground">{displayPhone(customer.phone)}</span>
                    </span>
                    {unread.has(customer.phone) ? (
                      <span className="size-2.5 shrink-0 rounded-full bg-[#25d366]" role="img" aria-label={t`New messages`} />
                    ) : null}
                  </button>
                  <Button variant="ghost" size="icon" onClick={() => onRemove(customer.phone)} aria-label={t`Remove ${customerName}`}>
                    <Trash2 />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <form onSubmit={submit} className="mt-auto grid gap-3 border-t p-4" noValidate aria-labelledby="sandbox-add-customer-title">
        <h2 id="sandbox-add-customer-title" className="text-sm font-semibold text-muted-foreground">
          {t`New customer`}
        </h2>
        <div className="grid gap-1.5">
          <Label htmlFor="sandbox-customer-name">{t`Customer name`}</Label>
          <Input
            id="sandbox-customer-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "sandbox-customer-name-error" : undefined}
          />
          {errors.name ? (
            <p id="sandbox-customer-name-error" className="text-xs font-medium text-destructive">
              {errors.name}
            </p>
          ) : null}
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="sandbox-customer-phone">{t`Customer phone`}</Label>
          <div className="flex gap-2">
            <Input
              id="sandbox-customer-phone"
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              autoComplete="off"
              placeholder="+55 11 91234-5678"
              aria-invalid={errors.phone ? true : undefined}
              aria-describedby={errors.phone ? "sandbox-customer-phone-error" : undefined}
            />
            <Button variant="outline" size="icon" onClick={() => setPhone(randomCustomerPhone())} aria-label={t`Random number`} title={t`Random number`}>
              <Dices />
            </Button>
          </div>
          {errors.phone ? (
            <p id="sandbox-customer-phone-error" className="text-xs font-medium text-destructive">
              {errors.phone}
            </p>
          ) : null}
        </div>
        <Button type="submit">
          <UserPlus />
          {t`Start conversation`}
        </Button>
      </form>
    </div>
  );
}
