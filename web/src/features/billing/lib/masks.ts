/**
 * Input masks of the billing forms (spec §5 address and card fields): they format what a person
 * types, never decide validity (the shared validators of schema/validation/billing.ts do).
 */

/** Only the digits of `value`. */
export function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

/** CPF "000.000.000-00" for up to 11 digits, CNPJ "00.000.000/0000-00" beyond. */
export function maskCpfCnpj(value: string): string {
  const d = digitsOf(value).slice(0, 14);
  if (d.length <= 11) {
    return d.replace(/^(\d{3})(\d)/, "$1.$2").replace(/^(\d{3})\.(\d{3})(\d)/, "$1.$2.$3").replace(/\.(\d{3})(\d{1,2})$/, ".$1-$2");
  }
  return d
    .replace(/^(\d{2})(\d)/, "$1.$2")
    .replace(/^(\d{2})\.(\d{3})(\d)/, "$1.$2.$3")
    .replace(/\.(\d{3})(\d)/, ".$1/$2")
    .replace(/(\d{4})(\d{1,2})$/, "$1-$2");
}

/** CEP "00000-000". */
export function maskPostalCode(value: string): string {
  const d = digitsOf(value).slice(0, 8);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}

/** A card number in groups of four (up to 19 digits). */
export function maskCardNumber(value: string): string {
  return digitsOf(value).slice(0, 19).replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** A Brazilian phone "(11) 91234-5678" / "(11) 1234-5678". */
export function maskPhone(value: string): string {
  const d = digitsOf(value).slice(0, 11);
  if (d.length <= 2) return d;
  const area = `(${d.slice(0, 2)}) `;
  const rest = d.slice(2);
  if (rest.length <= 4) return area + rest;
  const split = rest.length > 8 ? 5 : 4;
  return `${area}${rest.slice(0, split)}-${rest.slice(split)}`;
}
