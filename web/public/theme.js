// Applies the remembered theme before the first paint (no light flash in dark mode). A separate
// file because the Content-Security-Policy (script-src 'self') runs no inline script.
try {
  var t = localStorage.getItem("theme");
  if (t === "dark" || (t !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches)) {
    document.documentElement.classList.add("dark");
  }
} catch (e) {}
