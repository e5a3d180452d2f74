import '@tm/design-tokens/tokens.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from 'react-hot-toast';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';

// Set up like the shell (SPEC §9): no retries, toasts bottom-left.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <main>
          <App />
        </main>
      </BrowserRouter>
      <Toaster position="bottom-left" />
    </QueryClientProvider>
  </StrictMode>,
);
