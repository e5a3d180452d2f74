import type { PublicUser } from '@tm/api-client';
import { Link } from 'react-router-dom';
import { useLogout } from '@tm/web-platform';

/** The standalone app's `/`: who is signed in, so the team can see a login or signup take effect. */
export function Home({ user }: { user: PublicUser | null }) {
  const { mutate: logout, isPending } = useLogout();
  return (
    <section className="standalone-home" aria-labelledby="standalone-home-title">
      <h1 id="standalone-home-title">mfe-auth (standalone)</h1>
      {user ? (
        <>
          <p>Signed in as {user.fullName}</p>
          <p>
            <Link to="/account">Account settings</Link>
          </p>
          <button className="standalone-home__button" type="button" disabled={isPending} onClick={() => logout()}>
            {isPending ? 'Logging out...' : 'Logout'}
          </button>
        </>
      ) : (
        <p>
          You are signed out. <Link to="/login">Sign in</Link>
        </p>
      )}
    </section>
  );
}
