/**
 * A compact emoji picker: a built-in grid of common emoji in three groups (no dependency and no
 * network fetch, so it works on a self-hosted or offline install). Arrow keys move within the grid.
 */
import { useRef, type KeyboardEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { Smile } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

const SMILEYS = "😀 😃 😄 😁 😆 😅 😂 🤣 😊 😇 🙂 🙃 😉 😌 😍 🥰 😘 😗 😋 😛 😜 🤪 😝 🤗 🤭 🤫 🤔 🤐 🤨 😐 😑 😶 😏 😒 🙄 😬 😮‍💨 🤥 😴 😷 🤒 🤕 🤢 🤧 🥵 🥶 😵 🤯 🤠 🥳 😎 🤓 🧐 😕 😟 🙁 😮 😯 😲 😳 🥺 😦 😧 😨 😰 😥 😢 😭 😱 😖 😣 😞 😓 😩 😫 🥱 😤 😡 😠 🤬".split(" ");
const GESTURES = "👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 👏 🙌 👐 🤲 🤝 🙏 ✍️ 💪 🫶 👀 🙋 🙆 🙅 🤷 🤦".split(" ");
const SYMBOLS = "❤️ 🧡 💛 💚 💙 💜 🖤 🤍 💔 ❣️ 💕 💯 ✅ ❌ ⚠️ ❓ ❗ ⭐ 🌟 ✨ 🔥 🎉 🎊 🎁 🎂 ☕ 🍕 🍔 🍰 🍾 🥂 📦 🚚 🛒 💰 💳 🧾 📅 ⏰ 📞 📱 💻 📧 📍 🏠 🚀 👑 🌹 🌞 🌙 ☔ 🍀".split(" ");

/** The emoji button and its popover; `onPick` receives the chosen emoji. */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useLingui();
  const gridRef = useRef<HTMLDivElement>(null);
  const groups = [
    { label: t`Smileys`, emoji: SMILEYS },
    { label: t`Gestures`, emoji: GESTURES },
    { label: t`Symbols and objects`, emoji: SYMBOLS },
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = Array.from(gridRef.current?.querySelectorAll<HTMLButtonElement>("button[data-emoji]") ?? []);
    const index = buttons.findIndex((b) => b === document.activeElement);
    if (index < 0) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 8, ArrowUp: -8 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    buttons[Math.min(buttons.length - 1, Math.max(0, index + step))]?.focus();
  };
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t`Insert emoji`} disabled={disabled}>
          <Smile />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" side="top" className="w-76 p-2">
        <div ref={gridRef} className="grid max-h-72 gap-2 overflow-y-auto" onKeyDown={onKeyDown}>
          {groups.map((group) => (
            <section key={group.label} aria-label={group.label}>
              <h3 className="px-1 pb-1 text-xs font-medium text-muted-foreground">{group.label}</h3>
              <div className="grid grid-cols-8 gap-0.5">
                {group.emoji.map((emoji) => (
                  <button
                    key={emoji}
                    type="button"
                    data-emoji
                    className="flex size-8 items-center justify-center rounded-md text-xl outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                    onClick={() => onPick(emoji)}
                  >
                    {emoji}
                  </button>
                ))}
              </div>
            </section>
          ))}
        </div>
      </PopoverContent>
    </Popover>
  );
}
