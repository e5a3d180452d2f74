// The one react-router the shell and its remotes share (the first load). A shared module is
// provided whole, because the host cannot know what a remote will ask of it: sharing `react-router-dom`
// itself ships every export of react-router 7 (data routers, server helpers, cookies: ~60 KiB gzipped).
// Instead the shared 'react-router-dom' is this module, which re-exports only what the apps use, so
// Rspack tree-shakes the rest away. An app importing anything else from 'react-router-dom' fails the
// build-config test that compares the apps' imports with this list (router-exports.test.ts).
export {
  BrowserRouter,
  Link,
  Navigate,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useSearchParams,
} from 'react-router';
