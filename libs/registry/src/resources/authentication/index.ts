export {
  selfSubjectReviewDefinitions,
  selfSubjectReviewV1Definition,
  selfSubjectReviewV1beta1Definition,
  selfSubjectReviewV1alpha1Definition,
  userInfoSchema,
} from './selfsubjectreviews';
export { tokenReviewBadRequest, tokenReviewDefinition } from './tokenreviews';
