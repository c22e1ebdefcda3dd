export const CONTACTS_TAG = "Contacts";
