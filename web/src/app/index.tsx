import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime';
import { initShopSession } from '@/lib/shop/session';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The router starts once the runtime config is there, so the first loaders can call the shop. */
function AppRouter() {
  const config = useRuntimeConfig();
  const [router] = useState(() => {
    initShopSession(config);
    return createAppRouter();
  });
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <AppProvider>
      <AppRouter />
    </AppProvider>
  );
}
