export { newServiceAccount, serviceAccountsToCreate, serviceAccountsToEnsure } from './accounts';
