/**
 * The request's Content-Security-Policy nonce (entry.server.tsx makes one per HTML response). The document
 * hands it to every inline script it renders; in the browser there is none to give (the attribute is
 * hidden from scripts once parsed) and none is needed, since nothing is injected after hydration.
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = (): string | undefined => useContext(NonceContext);
