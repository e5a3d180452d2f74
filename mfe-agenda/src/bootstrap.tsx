import { mountStandalone } from '@tm/remote-kit/standalone';
import { StandaloneApp } from './standalone/standalone-app';

mountStandalone(<StandaloneApp />);
