/** Entry: activates the remembered locale (default pt-BR), then renders the router. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import "./index.css";
import { activateLocale, initialLocale } from "@/lib/i18n";
import { Providers } from "@/app/providers";
import { router } from "@/app/router";

async function start() {
  await activateLocale(initialLocale());
  const root = document.getElementById("root");
  if (!root) throw new Error("#root is missing from index.html");
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

void start();
