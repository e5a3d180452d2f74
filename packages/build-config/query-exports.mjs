// The shared '@tanstack/react-query' of the shell and its remotes, narrowed like router-exports.mjs to what
// the apps use: no infinite queries, hydration, suspense or useQueries in the first load. The
// alias is the package's own entry (rspack.config.mjs), which the shared name would otherwise intercept.
export {
  focusManager,
  hashKey,
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tm/shared-impl/react-query';
