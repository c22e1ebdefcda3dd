export { UserSchema } from "../../services/records/users";
