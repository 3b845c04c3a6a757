/**
 * Entry: creates the router (which starts loading the current route's chunks and running its guards)
 * while the remembered locale's catalog (default pt-BR) loads, then renders.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import "./index.css";
import { activateLocale, initialLocale } from "@/lib/i18n";
import { Providers } from "@/app/providers";
import { createAppRouter } from "@/app/router";

async function start() {
  const router = createAppRouter();
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
